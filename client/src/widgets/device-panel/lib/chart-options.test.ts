import { describe, expect, it } from 'vitest';
import { CHART_COLORS } from '../../../shared/ui';
import {
  batteryChartOptions,
  batterySeries,
  batterySpan,
  dispensingChartOptions,
  hourlyUsageChartOptions,
  monthAxis,
} from './chart-options';

describe('panel chart options', () => {
  it('draws dispensing in the primary colour and the fluid level in the warning colour, each on its axis', () => {
    const options = dispensingChartOptions(['08:00', '09:00']);
    expect(options.colors).toEqual([CHART_COLORS.primary, CHART_COLORS.warning]);
    expect(options.xaxis).toEqual({ categories: ['08:00', '09:00'] });
    expect(Array.isArray(options.yaxis) && options.yaxis.map((axis) => [axis.title?.text, axis.opposite ?? false])).toEqual([
      ['Dispensed', false],
      ['Fluid level', true],
    ]);
  });

  it('turns the battery line red with a low battery, labels percent, and plots the site wall clock', () => {
    expect(batteryChartOptions(true).colors).toEqual([CHART_COLORS.danger]);
    expect(batteryChartOptions(false).colors).toEqual([CHART_COLORS.success]);
    const yaxis = batteryChartOptions(false).yaxis as { labels: { formatter: (v: number) => string } };
    expect(yaxis.labels.formatter(49.6)).toBe('50%');
    // 16:00 UTC is 10:00 in Chicago: drawn at 10:00 on a UTC axis.
    const [series] = batterySeries(
      [{ update_on: '2026-11-22T16:00:00Z', battery_percent: 80, battery_volt: 12.5 }],
      'America/Chicago',
    );
    expect(series?.data).toEqual([{ x: Date.parse('2026-11-22T10:00:00Z'), y: 80 }]);
  });

  it('labels the hourly usage with its hours, in the primary colour, without a legend', () => {
    expect(hourlyUsageChartOptions(['0', '1'])).toMatchObject({
      xaxis: { categories: ['0', '1'] },
      colors: [CHART_COLORS.primary],
      legend: { show: false },
    });
  });
});

describe('battery chart month ticks', () => {
  /** The labels ApexCharts writes on a numeric axis: `tickAmount` equal intervals from min to max. */
  const ticks = (axis: ReturnType<typeof monthAxis>) =>
    Array.from({ length: axis.tickAmount + 1 }, (_, i) => axis.label(axis.min + (i * (axis.max - axis.min)) / axis.tickAmount));

  it('names every month of a year once, in order, none skipped (February and 31-day months included)', () => {
    const axis = monthAxis(Date.UTC(2025, 11, 3, 10), Date.UTC(2026, 10, 28, 16));
    expect(ticks(axis)).toEqual([
      'Dec 2025',
      'Jan 2026',
      'Feb',
      'Mar',
      'Apr',
      'May',
      'Jun',
      'Jul',
      'Aug',
      'Sep',
      'Oct',
      'Nov',
      'Dec',
    ]);
    expect(axis.min).toBe(Date.UTC(2025, 11, 1));
    expect(axis.max).toBe(Date.UTC(2026, 11, 1));
    // A leap year's February and a span of two months.
    expect(ticks(monthAxis(Date.UTC(2028, 0, 20), Date.UTC(2028, 2, 2)))).toEqual(['Jan 2028', 'Feb', 'Mar', 'Apr']);
  });

  it("puts the axis on the points' span, and the tooltip in the site wall clock", () => {
    const series = batterySeries(
      [
        { update_on: '2026-01-15T12:00:00Z', battery_percent: 80, battery_volt: 12.5 },
        { update_on: '2026-03-10T12:00:00Z', battery_percent: 70, battery_volt: 12.4 },
      ],
      'UTC',
    );
    const options = batteryChartOptions(false, batterySpan(series));
    const xaxis = options.xaxis as { type: string; min: number; max: number; tickAmount: number };
    expect(xaxis).toMatchObject({ type: 'numeric', min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 3, 1), tickAmount: 3 });
    const tooltip = options.tooltip as { x: { formatter: (v: number) => string } };
    expect(tooltip.x.formatter(Date.UTC(2026, 2, 10, 7, 5))).toBe('10 Mar 2026 07:05');
    // A few days of history keep day ticks: two month names around a sliver of line say nothing.
    const days = batterySeries(
      [
        { update_on: '2026-11-20T12:00:00Z', battery_percent: 80, battery_volt: 12.5 },
        { update_on: '2026-11-28T12:00:00Z', battery_percent: 79, battery_volt: 12.5 },
      ],
      'UTC',
    );
    expect((batteryChartOptions(false, batterySpan(days)).xaxis as { type: string }).type).toBe('datetime');
  });
});
