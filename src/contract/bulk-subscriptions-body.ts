import Type from 'typebox';

/** Most ids one bulk subscription names (`all: true` has no limit). */
export const MAX_BULK_SUBSCRIPTION_IDS = 1000;

/** `POST /v1/alert-channels/{id}/subscriptions`: many checks (or all) and groups subscribed at once. */
export const BulkSubscriptionsBody = Type.Object({
  checkIds: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: MAX_BULK_SUBSCRIPTION_IDS, description: 'Checks to subscribe' })),
  groupIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: MAX_BULK_SUBSCRIPTION_IDS, description: 'Check groups to subscribe' })),
  all: Type.Optional(Type.Boolean({ description: 'true: every check of the account (then leave checkIds out)' })),
  activated: Type.Optional(Type.Boolean({ description: 'false writes the subscriptions deactivated (default true)' })),
}, { additionalProperties: false });
