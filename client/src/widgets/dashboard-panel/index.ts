export { DashboardPanel } from './ui/dashboard-panel';
export { areaFocused, dashboardReset, deviceChosen, $selectedCounty } from './model';
