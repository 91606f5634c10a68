export { DashboardPanel, type DashboardSlots } from './ui/dashboard-panel';
export { areaFocused, deviceChosen } from './model';
