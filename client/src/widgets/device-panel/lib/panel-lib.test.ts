import { describe, expect, it } from 'vitest';
import {
  batteryPlaceholder,
  cardName,
  batteryTitle,
  formatDeviceClock,
  menuBadge,
  menuBadgeWarnings,
  pageCount,
  pageOf,
  panelSiteName,
  pendingIndicators,
  toggleConfirmation,
  twoDigits,
  updateAfterText,
  wholeNumberProblem,
} from './panel-lib';

describe('device panel rules', () => {
  it('shows the device clock in the site zone like 5 Jan 2024 3:04 PM', () => {
    const at = Date.parse('2024-01-05T21:04:30Z');
    expect(formatDeviceClock(at, 'America/Chicago')).toBe('5 Jan 2024 3:04 PM');
    expect(formatDeviceClock(at, 'Asia/Tokyo')).toBe('6 Jan 2024 6:04 AM');
    // Unknown or missing zones read UTC, never the viewer's clock.
    expect(formatDeviceClock(at, null)).toBe('5 Jan 2024 9:04 PM');
    expect(formatDeviceClock(at, 'Not/AZone')).toBe('5 Jan 2024 9:04 PM');
  });

  it('cuts a site name to 12 characters plus ... only when longer than 15', () => {
    expect(panelSiteName('Audubon Park Playground')).toBe('Audubon Park...');
    expect(panelSiteName('Fifteen chars!!')).toBe('Fifteen chars!!');
    expect(panelSiteName('Sixteen chars!!!')).toBe('Sixteen char...');
    expect(cardName('Audubon Park Main Entrance')).toBe('Audubon Park Main En...');
    expect(cardName('Audubon Park Playgrnd')).toBe('Audubon Park Playgrn...');
    expect(cardName('Twenty characters!!!')).toBe('Twenty characters!!!');
  });

  it('numbers cards with two digits', () => {
    expect([twoDigits(7), twoDigits(42), twoDigits(null)]).toEqual(['07', '42', '--']);
  });

  it('maps pending flags to ACTIVATION, REBOOT and RENTAL', () => {
    expect(pendingIndicators({ activation_changed: true, rental_changed: true, others: true })).toEqual([
      'ACTIVATION',
      'REBOOT',
      'RENTAL',
    ]);
    expect(pendingIndicators({ activation_changed: false, rental_changed: false, others: true })).toEqual(['REBOOT']);
    expect(pendingIndicators(null)).toEqual([]);
    expect(updateAfterText('2024-01-05T21:04:00Z', 'America/Chicago')).toBe('Update after 5 Jan 2024 3:04 PM');
    expect(updateAfterText(null, 'America/Chicago')).toBeNull();
  });

  it('badges the menu items of the spec warnings', () => {
    expect(menuBadge('dashboard', ['LEFT_PUMP_VOLUME'])).toBe(true);
    expect(menuBadge('dashboard', ['BATTERY'])).toBe(false);
    expect(menuBadge('management', ['FAILED_REQUEST'])).toBe(true);
    expect(menuBadge('battery', ['BATTERY'])).toBe(true);
    expect(menuBadge('sim', ['BATTERY', 'FAILED_REQUEST'])).toBe(false);
    // The badge says which warnings, in words.
    expect(menuBadgeWarnings('dashboard', ['PUMP_SENSOR', 'BATTERY', 'RIGHT_PUMP_VOLUME'])).toEqual([
      'Pump sensor fault',
      'Right pump fluid low',
    ]);
  });

  it('pages the daily chart 6 hours at a time', () => {
    const hours = Array.from({ length: 24 }, (_, h) => h);
    expect(pageCount(hours.length)).toBe(4);
    expect(pageOf(hours, 2)).toEqual([12, 13, 14, 15, 16, 17]);
    // A 25-hour fall-back day has a fifth page with its last hour.
    expect(pageCount(25)).toBe(5);
  });

  it('titles and fills the battery panel as the spec says', () => {
    expect(batteryTitle(['BATTERY'])).toBe('Low Battery Power');
    expect(batteryTitle([])).toBe('Battery Power');
    expect(batteryPlaceholder('loading', 0)).toBe('Loading...');
    expect(batteryPlaceholder('ready', 0)).toBe('No Data present in the graph!');
    expect(batteryPlaceholder('ready', 3)).toBeNull();
  });
});

describe('toggle confirmations', () => {
  it('asks before Deactivate, Maintenance on and Anti vandalism on; the way back runs on one click', () => {
    expect(toggleConfirmation('active', false)?.title).toBe('Deactivate Device?');
    expect(toggleConfirmation('maintenance', true)?.title).toBe('Turn On Maintenance?');
    expect(toggleConfirmation('vandalism', true)?.title).toBe('Turn On Anti vandalism?');
    expect(toggleConfirmation('active', true)).toBeNull();
    expect(toggleConfirmation('maintenance', false)).toBeNull();
    expect(toggleConfirmation('vandalism', false)).toBeNull();
  });
});

describe('setup numbers', () => {
  it('refuses a cleared, partial or out-of-range number with a message instead of saving a clamped one', () => {
    const problem = 'Max shots: enter a whole number from 1 to 100. Nothing is saved until then.';
    expect(wholeNumberProblem('Max shots', '', 1, 100)).toBe(problem);
    expect(wholeNumberProblem('Max shots', '  ', 1, 100)).toBe(problem);
    expect(wholeNumberProblem('Max shots', '0', 1, 100)).toBe(problem);
    expect(wholeNumberProblem('Max shots', '101', 1, 100)).toBe(problem);
    expect(wholeNumberProblem('Max shots', '2.5', 1, 100)).toBe(problem);
    expect(wholeNumberProblem('Max shots', '1', 1, 100)).toBeNull();
    expect(wholeNumberProblem('Max shots', '100', 1, 100)).toBeNull();
  });
});
