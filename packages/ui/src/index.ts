/**
 * @ecf/ui: presentational React components shared by the portal, styled with CSS modules (the
 * tokens and base styles in `@ecf/ui/tokens.css`, imported once by the portal's root layout).
 */
export { StatusPanel, type TServiceStatus } from './status-panel.tsx';
export { Button, LinkButton, type TButtonVariant } from './button.tsx';
export { TextField } from './text-field.tsx';
export { Select, type TSelectOption } from './select.tsx';
export { Table, type TTableColumn } from './table.tsx';
export { EmptyState } from './empty-state.tsx';
export { Banner, type TBannerTone } from './banner.tsx';
export { PageHeader } from './page-header.tsx';
export { Panel } from './panel.tsx';
export { StatusBadge, type TStatusTone } from './status-badge.tsx';
export { ConfirmDialog } from './confirm-dialog.tsx';
export { CopyButton } from './copy-button.tsx';
export { TechnicalDetails } from './technical-details.tsx';
