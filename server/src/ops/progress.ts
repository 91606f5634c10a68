/**
 * Progress of long work (the demo seed of a first start, `npm run seed`, the scale seed): each stage
 * with the share of the work done and an estimate of the time left. On a terminal one bar redrawn in
 * place (every second while a stage runs, so a long stage still moves); anywhere else (a log file, the
 * JSON logs of a container) one plain line per stage through `log`, so the lines stay greppable.
 *
 * The shares come from the stages' weights, measured once (the seeds' relative durations on PGlite);
 * the estimate from the time spent so far over the share done, or the caller's expectation before the
 * first stage ends. Dependency-free on purpose: it runs before anything else is up.
 */
export type ProgressStage = { name: string; weight: number };
export type ProgressTty = { write(text: string): unknown; columns?: number };

export interface Progress {
  /** Runs one stage: announced when it starts, counted done when it ends. */
  stage<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** The end: the bar's last redraw and line break, or a last plain line. */
  done(message?: string): void;
}

export type ProgressOptions = {
  title: string;
  stages: readonly ProgressStage[];
  /** Plain lines (no terminal): console.log, the pino logger... */
  log: (line: string) => void;
  /** A terminal (process.stdout when isTTY): the bar. */
  tty?: ProgressTty | undefined;
  /** What the whole work usually takes, for an estimate before the first stage ends. */
  expectMs?: number;
  now?: () => number;
  redrawMs?: number;
};

/** The share done (0..1) when `stageIndex` starts, `withinMs` into it, given the pace of the stages before. */
export function shareDone(stages: readonly ProgressStage[], stageIndex: number, withinMs = 0, msPerWeight?: number): number {
  const total = stages.reduce((a, s) => a + s.weight, 0) || 1;
  const before = stages.slice(0, Math.max(0, stageIndex)).reduce((a, s) => a + s.weight, 0);
  const current = stages[stageIndex]?.weight ?? 0;
  // Inside a stage: by the pace so far, never past 95 % of the stage (it ends when it ends).
  const inside = msPerWeight && current ? Math.min(current * 0.95, withinMs / msPerWeight) : 0;
  return Math.min(1, (before + inside) / total);
}

/** Milliseconds left: the time so far over the share done, else what the work is expected to take. */
export function estimateLeftMs(share: number, elapsedMs: number, expectMs?: number): number | undefined {
  if (share >= 1) return 0;
  if (share > 0.02 && elapsedMs > 0) return (elapsedMs / share) * (1 - share);
  return expectMs !== undefined ? Math.max(0, expectMs - elapsedMs) : undefined;
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** One plain line: `demo seed [3/8] 41% pump events (about 35 s left)`. */
export function progressLine(
  title: string,
  index: number,
  count: number,
  name: string,
  share: number,
  leftMs: number | undefined,
): string {
  const eta = leftMs === undefined ? 'estimating time left' : `about ${formatDuration(leftMs)} left`;
  return `${title} [${index + 1}/${count}] ${Math.floor(share * 100)}% ${name} (${eta})`;
}

/** The terminal bar: `demo seed [#######-------------]  35% pump events, about 35 s left`. */
export function progressBar(title: string, name: string, share: number, leftMs: number | undefined, columns = 80): string {
  const width = Math.max(10, Math.min(30, columns - title.length - name.length - 28));
  const filled = Math.round(share * width);
  const eta = leftMs === undefined ? '' : `, about ${formatDuration(leftMs)} left`;
  return `${title} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(share * 100)).padStart(3)}% ${name}${eta}`;
}

export function createProgress(opts: ProgressOptions): Progress {
  const now = opts.now ?? Date.now;
  const started = now();
  const { stages, title, tty } = opts;
  let index = -1;
  let stageStarted = started;
  let lastWidth = 0;
  // The pace (ms per unit of weight) of the stages done so far: how far a running stage probably is.
  let doneWeight = 0;
  const pace = () => (doneWeight > 0 ? (stageStarted - started) / doneWeight : undefined);

  const draw = (name: string) => {
    const within = now() - stageStarted;
    const share = shareDone(stages, index, within, pace());
    const left = estimateLeftMs(share, now() - started, opts.expectMs);
    if (tty) {
      const text = progressBar(title, name, share, left, tty.columns);
      tty.write(`\r${text}${' '.repeat(Math.max(0, lastWidth - text.length))}`);
      lastWidth = text.length;
    }
    return { share, left };
  };

  return {
    async stage(name, fn) {
      const known = stages.findIndex((s) => s.name === name);
      index = known >= 0 ? known : index;
      stageStarted = now();
      const { share, left } = draw(name);
      if (!tty) opts.log(progressLine(title, Math.max(0, index), stages.length, name, share, left));
      const timer = tty ? setInterval(() => draw(name), opts.redrawMs ?? 1000) : undefined;
      try {
        return await fn();
      } finally {
        clearInterval(timer);
        if (known >= 0) doneWeight += stages[known]!.weight;
      }
    },
    done(message) {
      const took = `${title}: done in ${formatDuration(now() - started)}${message ? `: ${message}` : ''}`;
      if (tty) {
        const text = progressBar(title, 'done', 1, undefined, tty.columns);
        tty.write(`\r${text}${' '.repeat(Math.max(0, lastWidth - text.length))}\n`);
      }
      opts.log(took);
    },
  };
}
