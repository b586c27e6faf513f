/**
 * Why an alert delivery failed, as a stable code (a test message's answer, GraphQL, the console's words):
 * - `CHANNEL_NOT_CONFIGURED`: the channel or the server lacks what the delivery needs (SMTP_URL, a key);
 * - `INVALID_URL`: the channel's URL is not http(s) (or its template rendered none);
 * - `RECEIVER_REJECTED`: the receiver answered with a refusal (an HTTP status other than 2xx, an SMTP error reply);
 * - `TIMEOUT`: no answer within LOOKOUT_ALERT_TIMEOUT_MS;
 * - `UNREACHABLE`: the connection failed (DNS, refused, reset, TLS);
 * - `DELIVERY_FAILED`: anything else.
 */
export const DELIVERY_ERROR_CODES = ['CHANNEL_NOT_CONFIGURED', 'INVALID_URL', 'RECEIVER_REJECTED', 'TIMEOUT', 'UNREACHABLE', 'DELIVERY_FAILED'] as const;

/** One of DELIVERY_ERROR_CODES. */
export type DeliveryErrorCode = (typeof DELIVERY_ERROR_CODES)[number];
