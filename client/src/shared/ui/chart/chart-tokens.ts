import tokensCss from '../tokens.css?raw';

/**
 * The design tokens' values for canvases and SVG libraries (ApexCharts) that take colours as strings,
 * not as CSS custom properties. Read from tokens.css itself at build time, so the stylesheet stays the
 * one place a colour is defined; a token that goes missing fails the unit test, not the look.
 */
export function readTokens(css: string): Record<string, string> {
  // The first :root block holds the tokens (later ones only tune motion for reduced-motion users).
  const root = /:root\s*\{([^}]*)\}/.exec(css)?.[1] ?? '';
  const raw = new Map<string, string>();
  for (const [, name, value] of root.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g))
    raw.set(name!, value!.trim());
  const resolve = (value: string, depth = 0): string =>
    depth > 8
      ? value
      : value.replace(/var\((--[\w-]+)\)/g, (whole, ref: string) => (raw.has(ref) ? resolve(raw.get(ref)!, depth + 1) : whole));
  return Object.fromEntries([...raw].map(([name, value]) => [name, resolve(value)]));
}

const TOKENS = readTokens(tokensCss);
const token = (name: string) => TOKENS[name] ?? '';

/** The colours charts draw with, by what they mean. */
export const CHART_COLORS = {
  primary: token('--color-primary'),
  warning: token('--color-warning'),
  success: token('--color-success'),
  danger: token('--color-danger'),
} as const;
