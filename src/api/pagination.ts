import type { FastifyReply } from 'fastify';

/**
 * Sends one page of an offset list: the bare array as the body and the total in
 * `Content-Range: <first>-<last>/<total>` (`*\/<total>` for a page past the end).
 */
export function sendPage<T>(reply: FastifyReply, items: T[], total: number, page: number, limit: number): T[] {
  const first = (page - 1) * limit;
  const range = items.length > 0 ? `${first}-${first + items.length - 1}/${total}` : `*/${total}`;
  reply.header('Content-Range', range);
  return items;
}
