/**
 * The signed-in caller's rights in the account the console shows (`GET /v1/accounts/me/access`):
 * the server's principal, as it answers it.
 */
export type { Principal as Access } from '../../../src/domain/principal.js';
