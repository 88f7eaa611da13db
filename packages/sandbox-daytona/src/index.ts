export { createDaytonaSandbox, DaytonaSandbox } from './daytona-sandbox.js';
