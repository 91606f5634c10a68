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
    yaxis: [
      { title: { text: 'Dispensed' }, min: 0, forceNiceScale: true },
      { opposite: true, title: { text: 'Fluid level' }, min: 0 },
    ],
    colors: [CHART_COLORS.primary, CHART_COLORS.warning],
    stroke: { width: [0, 2] },
    legend: { position: 'top' },
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const monthStart = (year: number, month: number) => Date.UTC(year, month, 1);

/**
 * The battery chart's time axis: one tick at the start of every month the points span (site wall clock
 * drawn as UTC), from the first point's month to the start of the month after the last. ApexCharts' own
 * datetime ticks are spaced by its own step and skipped a month (Jan, Mar, ...); here the axis is numeric
 * with as many equal intervals as months, and each tick is named by the month start nearest to it (equal
 * intervals sit within 2 days of the month starts, months being 28 to 31 days). January and the first tick
 * carry the year.
 */
export function monthAxis(fromMs: number, toMs: number) {
  const from = new Date(fromMs);
  const to = new Date(toMs);
  const min = monthStart(from.getUTCFullYear(), from.getUTCMonth());
  const months = Math.max(1, (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth()) + 1);
  const max = monthStart(from.getUTCFullYear(), from.getUTCMonth() + months);
  const label = (value: number) => {
    const i = Math.round(((value - min) / (max - min)) * months);
    const at = new Date(monthStart(from.getUTCFullYear(), from.getUTCMonth() + i));
    const month = MONTHS[at.getUTCMonth()]!;
    return i === 0 || at.getUTCMonth() === 0 ? `${month} ${at.getUTCFullYear()}` : month;
  };
  return { min, max, tickAmount: months, label };
}

const pad2 = (n: number) => String(n).padStart(2, '0');
/** A wall-clock instant drawn as UTC: 'd MMM yyyy HH:mm'. */
const wallTime = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
};

/** Month ticks from this many months of points on; a shorter history keeps ApexCharts' day ticks. */
export const MONTH_TICKS_FROM = 3;

/** Battery state of charge over the year, red while the device has a low battery warning; a tick per month. */
export function batteryChartOptions(low: boolean, span?: { from: number; to: number }): ChartOptions {
  // Points carry the site's wall clock drawn as UTC: the axis and tooltip read site time, like the header.
  const months = span ? monthAxis(span.from, span.to) : null;
  const axis = months && months.tickAmount >= MONTH_TICKS_FROM ? months : null;
  return {
    xaxis: axis
      ? {
          type: 'numeric',
          min: axis.min,
          max: axis.max,
          tickAmount: axis.tickAmount,
          labels: { formatter: (v: string) => axis.label(Number(v)), hideOverlappingLabels: false },
          tooltip: { enabled: false },
        }
      : { type: 'datetime', labels: { datetimeUTC: true } },
    yaxis: { min: 0, max: 100, tickAmount: 10, labels: { formatter: (v: number) => `${Math.round(v)}%` } },
    colors: [low ? CHART_COLORS.danger : CHART_COLORS.success],
    stroke: { width: 2, curve: 'smooth' },
    fill: { type: 'gradient', gradient: { opacityFrom: 0.35, opacityTo: 0.05 } },
    tooltip: { x: { formatter: (v: number) => wallTime(v) } },
  };
}

/** The wall-clock span of the battery points (null without any). */
export function batterySpan(series: ReturnType<typeof batterySeries>): { from: number; to: number } | undefined {
  const xs = series[0]!.data.map((p) => p.x);
  return xs.length ? { from: Math.min(...xs), to: Math.max(...xs) } : undefined;
}

/** The battery points as the chart draws them: the site's wall clock, the state of charge. */
export function batterySeries(points: readonly BatteryLogPoint[], timeZone: string | null | undefined) {
  return [
    {
      name: 'Battery SOC (%)',
      data: points.map((p) => ({ x: siteWallMs(Date.parse(p.update_on), timeZone), y: p.battery_percent })),
    },
  ];
}

/** A day's data usage per hour (SIM Management). */
export function hourlyUsageChartOptions(hours: string[]): ChartOptions {
  return {
    xaxis: { categories: hours, labels: { rotate: 0, hideOverlappingLabels: true } },
    colors: [CHART_COLORS.primary],
    legend: { show: false },
  };
}
