import { fork } from 'effector';
import { Provider } from 'effector-react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { $devicePins, $pinsStatus } from '../../../entities/device';
import { fakeDevice, pinsOf } from '../../../entities/device/lib/fake-device';
import { ActivePinPanel } from './active-pin-panel';

describe('ActivePinPanel', () => {
  it('writes its counts as the dashboard tiles do, with thousands separators', () => {
    const fleet = pinsOf([
      ...Array.from({ length: 1234 }, (_, at) => fakeDevice(`R${at}`)),
      ...Array.from({ length: 5 }, (_, at) => fakeDevice(`P${at}`, { is_pause: true })),
    ]);
    const scope = fork({
      values: [
        [$devicePins, fleet],
        [$pinsStatus, 'ready'],
      ],
    });
    const html = renderToStaticMarkup(
      <Provider value={scope}>
        <ActivePinPanel />
      </Provider>,
    );
    expect(html).toContain('>1,234<');
    expect(html).toContain('>5<');
    expect(html).toContain('>0<');
    expect(html).not.toContain('1234');
  });

  it('shows no number before the pin feed has answered', () => {
    const scope = fork({ values: [[$devicePins, pinsOf([fakeDevice('R1')])]] });
    const html = renderToStaticMarkup(
      <Provider value={scope}>
        <ActivePinPanel />
      </Provider>,
    );
    expect(html).toContain('Synced');
    expect(html).not.toMatch(/>\d+</);
  });
});
