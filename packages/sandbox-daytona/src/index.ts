export { createDaytonaSandbox, DaytonaSandbox } from './daytona-sandbox.js';
export type { DaytonaSandboxConfig } from './daytona-sandbox.js';
