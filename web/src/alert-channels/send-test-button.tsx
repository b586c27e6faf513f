import { useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { testOutcomeWords } from './test-outcome-words.js';

const TestChannel = graphql(`
  mutation ConsoleTestAlertChannel($id: ID!) { testAlertChannel(id: $id) { ok code message status } }
`);

/** "Send test": delivers a test message through the channel now and says whether the receiver took it, and if not why. */
export function SendTestButton({ channelId, label }: { channelId: string; label: string }) {
  const [sending, send] = useMutation(TestChannel);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  async function test() {
    setOutcome(null);
    const result = await send({ id: channelId });
    const answer = result.data?.testAlertChannel;
    if (!answer) return setOutcome({ ok: false, text: result.error?.message ?? 'The test could not be sent.' });
    setOutcome({ ok: answer.ok, text: testOutcomeWords(answer) });
  }

  return (
    <>
      <button type="button" className="button button--small" disabled={sending.fetching} onClick={test} aria-label={`Send a test message to ${label}`}>
        {sending.fetching ? 'Sending…' : 'Send test'}
      </button>
      {outcome && (
        <p className={outcome.ok ? 'test-outcome test-outcome--ok' : 'form-error test-outcome'} role={outcome.ok ? 'status' : 'alert'} data-test-outcome={outcome.ok ? 'ok' : 'failed'}>
          {outcome.text}
        </p>
      )}
    </>
  );
}
