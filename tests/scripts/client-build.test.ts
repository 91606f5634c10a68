import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types (scripts/client-build.mjs)
import { CLIENT_BUILD_INPUTS, clientBuildNeeded, clientSourceHash, recordClientBuild } from '../../scripts/client-build.mjs';

/** A repository in miniature: the client's sources, the shared package, the lockfile, a dist. */
function fixture() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'client-build-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write('client/src/main.tsx', 'export const a = 1;');
  write('client/index.html', '<div id="root"></div>');
  write('shared/src/index.ts', 'export const b = 2;');
  write('package-lock.json', '{}');
  return { root, write, dist: path.join(root, 'client', 'dist') };
}

describe('npm start builds the client only when its sources changed', () => {
  it('builds with no dist, or a dist of unknown sources; skips when the recorded hash matches', () => {
    const { root, write, dist } = fixture();
    const hash = clientSourceHash(root);
    expect(clientBuildNeeded(dist, hash)).toEqual({ build: true, reason: 'no build yet' });
    write('client/dist/index.html', '<html>');
    expect(clientBuildNeeded(dist, hash)).toEqual({ build: true, reason: 'built from unknown sources' });
    recordClientBuild(dist, hash);
    expect(clientBuildNeeded(dist, clientSourceHash(root))).toEqual({ build: false, reason: 'sources unchanged' });
  });

  it('rebuilds after a change in the client, the shared package or the lockfile, not after one in the dist or node_modules', () => {
    const { root, write, dist } = fixture();
    write('client/dist/index.html', '<html>');
    recordClientBuild(dist, clientSourceHash(root));
    write('client/dist/assets/x.js', 'built');
    write('client/node_modules/.vite/cache', 'x');
    write('server/src/app.ts', 'not the client');
    expect(clientBuildNeeded(dist, clientSourceHash(root)).build).toBe(false);
    for (const [file, text] of [
      ['client/src/main.tsx', 'export const a = 2;'],
      ['client/src/new-file.ts', ''],
      ['shared/src/index.ts', 'export const b = 3;'],
      ['package-lock.json', '{"v":2}'],
    ] as const) {
      write(file, text);
      expect(clientBuildNeeded(dist, clientSourceHash(root))).toEqual({ build: true, reason: 'sources changed' });
      recordClientBuild(dist, clientSourceHash(root));
    }
    // A file renamed (same content) is a change too.
    fs.renameSync(path.join(root, 'client/src/new-file.ts'), path.join(root, 'client/src/renamed.ts'));
    expect(clientBuildNeeded(dist, clientSourceHash(root)).build).toBe(true);
  });

  it('counts every build-time file at the client root (vite config and its plugins) among the inputs', () => {
    const repo = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
    const rootFiles = fs
      .readdirSync(path.join(repo, 'client'))
      .filter((f) => /\.(ts|mjs|js|html|json)$/.test(f))
      .map((f) => `client/${f}`);
    for (const file of rootFiles) if (!file.endsWith('tsconfig.json')) expect(CLIENT_BUILD_INPUTS).toContain(file);
  });
});
