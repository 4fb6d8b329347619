/** The inbound domain: received e-CF and commercial approvals (issue 18). */
export * from './received.ts';
