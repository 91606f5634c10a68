import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layer rule of eslint.config.js for stylesheets. ESLint sees a .module.css import in a .ts/.tsx file
 * but never a `composes: x from '...'` inside a stylesheet, so this scan checks both: a widget does not use
 * another widget's stylesheet, nor a feature another feature's, and no layer reaches up into a higher one.
 * A look that two slices share lives in shared/ui (shared/ui/panel-kit: the dashboard's fields and cards).
 */
const SRC = path.dirname(fileURLToPath(import.meta.url));
/** Highest first, as in eslint.config.js. */
const LAYERS = ['app', 'pages', 'widgets', 'features', 'entities', 'shared'];
const ISOLATED = ['widgets', 'features'];

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [full];
  });
}

/** The layer and slice a file of client/src belongs to (app has no slices). */
function sliceOf(root: string, file: string): { layer: string; slice: string } | null {
  const [layer, slice = ''] = path.relative(root, file).split(path.sep);
  if (!layer || !LAYERS.includes(layer)) return null;
  return { layer, slice: layer === 'app' ? '' : slice };
}

/** The relative stylesheet paths a file uses: `composes ... from` in a stylesheet, imports in a script. */
function stylesheetsUsed(file: string, text: string): string[] {
  const pattern = file.endsWith('.css')
    ? /composes:[^;]*?\bfrom\s+['"]([^'"]+)['"]/g
    : /(?:from|import)\s+['"](\.[^'"]*\.css)['"]/g;
  return [...text.matchAll(pattern)].map((match) => match[1]!).filter((target) => target.startsWith('.'));
}

function stylesheetCrossings(root: string): string[] {
  const sources = files(root).filter((file) => /\.module\.css$|(?<!\.test)\.tsx?$/.test(file));
  return sources.flatMap((file) => {
    const from = sliceOf(root, file);
    if (!from) return [];
    return stylesheetsUsed(file, fs.readFileSync(file, 'utf8')).flatMap((target) => {
      const to = sliceOf(root, path.resolve(path.dirname(file), target));
      if (!to) return [];
      const upward = LAYERS.indexOf(to.layer) < LAYERS.indexOf(from.layer);
      const sideways = to.layer === from.layer && ISOLATED.includes(from.layer) && to.slice !== from.slice;
      return upward || sideways ? [`${path.relative(root, file).split(path.sep).join('/')} uses ${target}`] : [];
    });
  });
}

describe('stylesheets keep the layer rule', () => {
  it('no widget or feature uses another slice’s stylesheet, no layer one above it', () => {
    expect(stylesheetCrossings(SRC)).toEqual([]);
  });

  it('names a composes or an import into another widget, and lets shared/ui and a slice’s own sheets pass', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stylesheet-boundaries-'));
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    };
    write('shared/ui/kit/kit.module.css', '.field { gap: 2px; }');
    write('widgets/a/ui/a.module.css', '.own { color: red; }');
    write(
      'widgets/b/ui/b.module.css',
      ".x { composes: own from '../../a/ui/a.module.css'; }\n.y { composes: field from '../../../shared/ui/kit/kit.module.css'; }",
    );
    write('widgets/c/ui/c.tsx', "import a from '../../a/ui/a.module.css';\nimport own from './c.module.css';");
    write('features/d/ui/d.module.css', ".z { composes: own from '../../../widgets/a/ui/a.module.css'; }");
    expect(stylesheetCrossings(root).sort()).toEqual([
      'features/d/ui/d.module.css uses ../../../widgets/a/ui/a.module.css',
      'widgets/b/ui/b.module.css uses ../../a/ui/a.module.css',
      'widgets/c/ui/c.tsx uses ../../a/ui/a.module.css',
    ]);
    fs.rmSync(root, { recursive: true, force: true });
  });
});
