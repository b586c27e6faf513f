/** What `POST /v1/alert-channels/{id}/subscriptions` answers: the subscriptions written, checks first, each list in the order given. */
export const BulkSubscriptionsAnswer = {
  $id: 'BulkSubscriptionsAnswer',
  type: 'object',
  description: 'The subscriptions written: checks (in the order given, or oldest first for all), then groups',
  required: ['subscriptions'],
  properties: {
    subscriptions: { type: 'array', items: { $ref: 'AlertChannelSubscription#' } },
  },
};
