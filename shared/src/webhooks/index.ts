// Webhook wire contracts: event types, endpoint and delivery shapes, the event body.
export * from './event-types.js';
export * from './webhook-endpoint.js';
export * from './webhook-delivery.js';
