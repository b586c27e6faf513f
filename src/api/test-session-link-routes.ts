import Type from 'typebox';
import { testSessionConsoleUrl } from '../domain/test-session-console-url.js';
import type { Api, ApiContext } from './api-context.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';

const tags = ['Test sessions'];

/**
 * The links the `checkly` CLI prints after a run ("Detailed session summary at", "View result"):
 * pages of the console under LOOKOUT_PUBLIC_URL. Both answer 404 for a session (or a result of it)
 * the account does not have, so a link is only handed out for something it can open.
 */
export function testSessionLinkRoutes(app: Api, { testSessions, testSessionRuns, config }: ApiContext): void {
  app.get('/next/test-sessions/:id/link', {
    schema: {
      operationId: 'getTestSessionLink', tags, summary: 'The console page of a test session',
      params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
      response: responses({ 200: ref('TestSessionLink') }),
    },
  }, async (req) => {
    await testSessions.get(req.principal.accountId, req.params.id);
    return { link: testSessionConsoleUrl(config.publicUrl, req.principal.accountId, req.params.id) };
  });

  app.get('/next/test-sessions/:id/results/:resultId/links', {
    schema: {
      operationId: 'getTestSessionResultLinks', tags, summary: 'The console page of one result of a test session',
      params: Type.Object({ id: Type.String({ format: 'uuid' }), resultId: Type.String({ format: 'uuid' }) }),
      response: responses({ 200: ref('TestSessionResultLinks') }),
    },
  }, async (req) => {
    const { accountId } = req.principal;
    await testSessions.get(accountId, req.params.id);
    // Without the run service (no `checkly test` here) only the session itself can be checked.
    if (testSessionRuns) await testSessionRuns.result(accountId, req.params.id, req.params.resultId);
    return {
      testResultLink: testSessionConsoleUrl(config.publicUrl, accountId, req.params.id, req.params.resultId),
      testTraceLinks: [], videoLinks: [],
    };
  });
}
