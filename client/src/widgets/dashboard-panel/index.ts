export { DashboardPanel } from './ui/dashboard-panel';
export { dashboardReset, $selectedCounty } from './model';
