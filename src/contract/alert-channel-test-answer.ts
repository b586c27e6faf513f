import { DELIVERY_ERROR_CODES } from '../domain/delivery-error-code.js';

/** What `POST /v1/alert-channels/{id}/test` answers: whether the test message was delivered, and if not why. */
export const AlertChannelTestAnswer = {
  $id: 'AlertChannelTestAnswer',
  type: 'object',
  description: 'How the test message went: delivered (ok), or not, with a stable code and words saying why',
  required: ['ok', 'code', 'message', 'status', 'response'],
  properties: {
    ok: { type: 'boolean', description: 'True when the receiver accepted the test message' },
    code: {
      type: ['string', 'null'], enum: [...DELIVERY_ERROR_CODES, null],
      description: 'Null when delivered. CHANNEL_NOT_CONFIGURED (the channel or server lacks what it needs, such as SMTP_URL), INVALID_URL, '
        + 'RECEIVER_REJECTED (an HTTP status other than 2xx, an SMTP error reply), TIMEOUT, UNREACHABLE, DELIVERY_FAILED',
    },
    message: { type: 'string', description: 'What happened, for people (the receiver\'s refusal included)' },
    status: { type: ['integer', 'null'], description: 'HTTP status (or SMTP reply code) the receiver answered' },
    response: { type: ['string', 'null'], description: 'The start of what the receiver answered' },
  },
};
