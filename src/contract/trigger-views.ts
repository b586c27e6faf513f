/** The trigger token of a check: calling `url` runs the check now, without an API key. */
export const CheckTrigger = {
  $id: 'CheckTrigger',
  type: 'object',
  required: ['id', 'checkId', 'token', 'url', 'called_at', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'integer' },
    checkId: { type: 'string', format: 'uuid' },
    token: { type: 'string' },
    url: { type: 'string', description: 'GET or POST it to run the check' },
    called_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: ['string', 'null'], format: 'date-time' },
  },
};

/** A ping a heartbeat check received. */
export const HeartbeatPing = {
  $id: 'HeartbeatPing',
  type: 'object',
  required: ['id', 'type', 'timestamp'],
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: ['PING', 'START', 'FAIL'] },
    timestamp: { type: 'string', format: 'date-time' },
    method: { type: ['string', 'null'] },
    source: { type: ['string', 'null'], description: 'Client address' },
    userAgent: { type: ['string', 'null'] },
  },
};

/** Schemas of this file registered as named components. */
export const TRIGGER_VIEW_SCHEMAS = [CheckTrigger, HeartbeatPing];
