import { describe, expect, it } from 'vitest';
import { sharedDeclarationsYield } from '../../client/vite-shared-yield.ts';

describe("the client build's yield before each shared schema and API module", () => {
  const transform = sharedDeclarationsYield().transform as (code: string, id: string) => { code: string; map: null } | null;
  const code = "import { z } from 'zod';\nexport const a = z.string();\n";

  it('puts a top-level yield on the first line of shared schema and API modules, and nowhere else', () => {
    for (const id of [
      '/repo/shared/src/schemas/device.schema.ts',
      '/repo/shared/src/api/devices.ts',
      'C:\\repo\\shared\\src\\api\\auth.ts',
    ]) {
      const out = transform(code, id);
      expect(out?.code).toMatch(
        /^import \{ yieldToBrowser as __yieldToBrowser \} from ".*yield-to-browser\.ts"; await __yieldToBrowser\(\); import/,
      );
      // The module's own lines stay where they were (its source map still matches).
      expect(out!.code.split('\n').slice(1)).toEqual(code.split('\n').slice(1));
    }
    for (const id of [
      '/repo/shared/src/schemas/device.schema.test.ts',
      '/repo/shared/src/rules/batch-status.ts',
      '/repo/client/src/shared/api/call.ts',
      '/repo/shared/src/schemas/nested/x.ts',
    ])
      expect(transform(code, id)).toBeNull();
  });

  it('runs in the build only (the dev server and the client unit tests load the modules as written)', () => {
    expect(sharedDeclarationsYield().apply).toBe('build');
  });
});
