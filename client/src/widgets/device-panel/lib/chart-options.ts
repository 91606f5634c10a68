import type { BatteryLogPoint } from '@fleet/shared';
import { CHART_COLORS, type ChartOptions } from '../../../shared/ui';
import { siteWallMs } from './panel-lib';

/**
 * ApexCharts options of the panel's charts, as pure functions of what they show (colours from the design
 * tokens). The shared Chart adds the portal's look (no toolbar, no animation, no data labels).
 */

/** Dispensing analytics: dispensed per period as columns, the fluid level as a line on its own axis. */
export function dispensingChartOptions(categories: string[]): ChartOptions {
  return {
    xaxis: { categories },
    yaxis: [{ title: { text: 'Dispensed' }, min: 0, forceNiceScale: true }, { opposite: true, title: { text: 'Fluid level' }, min: 0 }],
    colors: [CHART_COLORS.primary, CHART_COLORS.warning],
    stroke: { width: [0, 2] },
    legend: { position: 'top' },
  };
}

/** Battery state of charge over the year, red while the device has a low battery warning. */
export function batteryChartOptions(low: boolean): ChartOptions {
  return {
    // Points carry the site's wall clock drawn as UTC: the axis and tooltip read site time, like the header.
    xaxis: { type: 'datetime', labels: { datetimeUTC: true } },
    yaxis: { min: 0, max: 100, tickAmount: 10, labels: { formatter: (v: number) => `${Math.round(v)}%` } },
    colors: [low ? CHART_COLORS.danger : CHART_COLORS.success],
    stroke: { width: 2, curve: 'smooth' },
    fill: { type: 'gradient', gradient: { opacityFrom: 0.35, opacityTo: 0.05 } },
    tooltip: { x: { format: 'd MMM yyyy HH:mm' } },
  };
}

/** The battery points as the chart draws them: the site's wall clock, the state of charge. */
export function batterySeries(points: readonly BatteryLogPoint[], timeZone: string | null | undefined) {
  return [{ name: 'Battery SOC (%)', data: points.map((p) => ({ x: siteWallMs(Date.parse(p.update_on), timeZone), y: p.battery_percent })) }];
}

/** A day's data usage per hour (SIM Management). */
export function hourlyUsageChartOptions(hours: string[]): ChartOptions {
  return { xaxis: { categories: hours, labels: { rotate: 0, hideOverlappingLabels: true } }, colors: [CHART_COLORS.primary], legend: { show: false } };
}
