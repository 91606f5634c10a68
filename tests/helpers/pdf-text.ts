import { spawnSync } from 'node:child_process';

/** pdftotext (Debian's poppler-utils) is on PATH. */
export const pdftotextInstalled = spawnSync('pdftotext', ['-v']).error === undefined;

/**
 * Whether the PDF text checks run: where pdftotext is installed, and always under CI=true (.ci/run installs
 * it), so a missing tool fails CI instead of skipping the checks.
 */
export const pdfTextChecks = pdftotextInstalled || !!process.env.CI;

/** The text of a PDF as a reader extracts it (pdftotext, UTF-8, reading order; runs of spaces as one). */
export function pdfText(pdf: Buffer): string {
  const out = spawnSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf, maxBuffer: 64 * 1024 * 1024 });
  if (out.error) throw new Error(`pdftotext is not installed (apt-get install -y poppler-utils): ${out.error.message}`);
  if (out.status !== 0) throw new Error(`pdftotext failed: ${out.stderr.toString()}`);
  return out.stdout.toString('utf8').replace(/[ \t]+/g, ' ');
}
