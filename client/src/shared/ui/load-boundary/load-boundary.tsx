import { Component, type ReactNode } from 'react';

export type LoadBoundaryProps = {
  /** What shows instead of the children once loading their code failed; `retry` shows the children again. */
  failure: (retry: () => void) => ReactNode;
  /** Called by `retry` before the children show again: the caller makes new lazy components (which download anew) or loads the page anew. */
  onRetry: () => void;
  children: ReactNode;
};

/**
 * Around code loaded on demand (React.lazy): a chunk that could not be downloaded (offline, a deploy in
 * between) says so where the part would be, with Try again, instead of blanking the whole page. It catches
 * any error thrown while its children render, so an error that is not a download shows the same message.
 */
export class LoadBoundary extends Component<LoadBoundaryProps, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  private readonly retry = () => {
    this.props.onRetry();
    this.setState({ failed: false });
  };
  override render() {
    return this.state.failed ? this.props.failure(this.retry) : this.props.children;
  }
}
