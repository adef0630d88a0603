// A dispatch pass's outcomes written as one statement per kind (sent, failed, retry) rather than one
// per message. The operations live in store/messages/ (advance-message-statuses.ts,
// schedule-message-retries.ts); their old names stay exported here.
export {
  advanceMessageStatuses as advanceStatuses,
  type StatusMove,
  type StatusMoveColumns,
} from './advance-message-statuses.js';
export { scheduleMessageRetries as scheduleRetries, type RetrySchedule } from './schedule-message-retries.js';
