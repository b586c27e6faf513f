import { fromGlobalId, isUuid, toGlobalId, uuidRestId } from './global-id.js';

/** The REST id (lower-case, as REST writes it) of a status page from its global id or its REST UUID; null when it can be neither. */
export const statusPageRestId = (id: string): string | null => uuidRestId(id, 'StatusPage')?.toLowerCase() ?? null;

/**
 * The two UUIDs of a global id of `type` that carries its parent's id (`parentId:childId`), or of those
 * REST ids written so by hand, lower-case; null when `id` is neither.
 */
function uuidPair(id: string, type: string): [string, string] | null {
  const g = fromGlobalId(id);
  const restId = g?.type === type ? g.restId : id;
  const [parent, child, extra] = restId.split(':');
  return parent && child && extra === undefined && isUuid(parent) && isUuid(child) ? [parent.toLowerCase(), child.toLowerCase()] : null;
}

/** Global id of a status page card: it carries the page's id, because REST reads a card with its page. */
export function statusPageCardGlobalId(statusPageId: string, cardId: string): string {
  return toGlobalId('StatusPageCard', `${statusPageId}:${cardId}`);
}

/** `{statusPageId, cardId}` of a card's global id or of `statusPageId:cardId`, lower-case; null when `id` is neither. */
export function statusPageCardRestIds(id: string): { statusPageId: string; cardId: string } | null {
  const pair = uuidPair(id, 'StatusPageCard');
  return pair && { statusPageId: pair[0], cardId: pair[1] };
}

/**
 * The REST id of a card as a page write names it: from the card's global id, or a bare UUID; null when
 * it can be neither.
 */
export function cardRestId(id: string): string | null {
  return isUuid(id) ? id.toLowerCase() : statusPageCardRestIds(id)?.cardId ?? null;
}

/** Global id of a subscriber: it carries the page's id, because REST lists and deletes subscribers under their page. */
export function statusPageSubscriberGlobalId(statusPageId: string, subscriberId: string): string {
  return toGlobalId('StatusPageSubscriber', `${statusPageId}:${subscriberId}`);
}

/** `{statusPageId, subscriberId}` of a subscriber's global id or of `statusPageId:subscriberId`, lower-case; null when `id` is neither. */
export function statusPageSubscriberRestIds(id: string): { statusPageId: string; subscriberId: string } | null {
  const pair = uuidPair(id, 'StatusPageSubscriber');
  return pair && { statusPageId: pair[0], subscriberId: pair[1] };
}
