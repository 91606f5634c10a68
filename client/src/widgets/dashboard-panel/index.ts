export { DashboardPanel, type DashboardSlots } from './ui/dashboard-panel';
export { areaFocused, dashboardReset, deviceChosen, $selectedCounty } from './model';
