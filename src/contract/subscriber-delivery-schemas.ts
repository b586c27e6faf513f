import Type from 'typebox';
import { PageQuery } from './common.js';

/** The statuses of a delivery attempt to a status page subscriber. */
export const SUBSCRIBER_DELIVERY_STATUSES = ['PENDING', 'SENT', 'FAILED'] as const;

const Uuid = (description: string) => Type.Optional(Type.String({ format: 'uuid', description }));

/** Query of `GET /v1/status-pages/subscriber-deliveries`. */
export const SubscriberDeliveryListQuery = Type.Object({
  ...PageQuery,
  incidentId: Uuid('Only attempts of notifications about this incident\'s updates'),
  maintenanceId: Uuid('Only attempts of notifications about this maintenance (its updates and reminders)'),
  statusPageId: Uuid('Only attempts to subscribers of this status page'),
  subscriptionId: Uuid('Only attempts to this subscriber'),
  status: Type.Optional(Type.Enum([...SUBSCRIBER_DELIVERY_STATUSES])),
}, { additionalProperties: false });

export type SubscriberDeliveryListQueryType = Type.Static<typeof SubscriberDeliveryListQuery>;
