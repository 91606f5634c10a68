import { describe, expect, it } from 'vitest';
import { CHART_COLORS } from '../../../shared/ui';
import { batteryChartOptions, batterySeries, dispensingChartOptions, hourlyUsageChartOptions } from './chart-options';

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
    const [series] = batterySeries([{ update_on: '2026-11-22T16:00:00Z', battery_percent: 80, battery_volt: 12.5 }], 'America/Chicago');
    expect(series?.data).toEqual([{ x: Date.parse('2026-11-22T10:00:00Z'), y: 80 }]);
  });

  it('labels the hourly usage with its hours, in the primary colour, without a legend', () => {
    expect(hourlyUsageChartOptions(['0', '1'])).toMatchObject({ xaxis: { categories: ['0', '1'] }, colors: [CHART_COLORS.primary], legend: { show: false } });
  });
});
