import { lazy, Suspense } from 'react';
import type { Props as ApexProps } from 'react-apexcharts';
import styles from './chart.module.css';

// ApexCharts is loaded with the first chart shown, never with the map or the login page.
const ReactApexChart = lazy(() => import('react-apexcharts'));

export type ChartProps = ApexProps & {
  /** What the chart shows, for screen readers (the drawing itself is an image to them). */
  label: string;
  /** Shown instead of the chart: 'Loading...' while loading, the empty text when there is no data. */
  placeholder?: string | null;
  height: number;
};
/** ApexCharts options, as the builders in each widget's lib/ return them. */
export type ChartOptions = NonNullable<ChartProps['options']>;

/** One chart look for the portal: no toolbar, no animation (large series), the design's font. */
export function Chart({ label, placeholder, height, options, ...rest }: ChartProps) {
  if (placeholder) {
    return (
      <div className={styles.placeholder} style={{ height }} role="status">
        {placeholder}
      </div>
    );
  }
  return (
    <div className={styles.chart} role="figure" aria-label={label} style={{ minHeight: height }}>
      <Suspense
        fallback={
          <div className={styles.placeholder} style={{ height }}>
            Loading...
          </div>
        }
      >
        <ReactApexChart
          height={height}
          options={{
            ...options,
            chart: {
              fontFamily: 'inherit',
              toolbar: { show: false },
              animations: { enabled: false },
              zoom: { enabled: false },
              ...options?.chart,
            },
            dataLabels: { enabled: false, ...options?.dataLabels },
          }}
          {...rest}
        />
      </Suspense>
    </div>
  );
}
