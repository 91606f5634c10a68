import { describe, expect, it } from 'vitest';
import tokensCss from '../tokens.css?raw';
import { CHART_COLORS, readTokens } from './chart-tokens';

describe('chart tokens', () => {
  it('reads custom properties of the first :root block and resolves var() references', () => {
    const css =
      ':root {\n  /* brand */\n  --a: #111;\n  --b: var(--a);\n  --c: var(--b);\n  --d: var(--missing);\n}\n@media (x) { :root { --a: #222; } }';
    expect(readTokens(css)).toEqual({ '--a': '#111', '--b': '#111', '--c': '#111', '--d': 'var(--missing)' });
  });

  it('gives charts the colours of tokens.css, aliases resolved', () => {
    const tokens = readTokens(tokensCss);
    expect(CHART_COLORS).toEqual({
      primary: tokens['--color-primary'],
      warning: tokens['--color-warning'],
      success: tokens['--color-online'],
      danger: tokens['--color-offline'],
    });
    // ApexCharts needs real colours: a token gone missing or left as var() would draw nothing.
    for (const colour of Object.values(CHART_COLORS)) expect(colour).toMatch(/^#[0-9a-f]{6}$/i);
  });
});
