/** @ecf/ui: presentational React components shared by the portal. */
export { StatusPanel, type TServiceStatus } from './status-panel.tsx';
