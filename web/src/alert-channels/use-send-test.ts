import { useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { testOutcomeWords } from './test-outcome-words.js';

const TestChannel = graphql(`
  mutation ConsoleTestAlertChannel($id: ID!) { testAlertChannel(id: $id) { ok code message status } }
`);

/** How the last "Send test" of a channel went, in words. */
export interface SendTestOutcome {
  ok: boolean;
  text: string;
}

/** "Send test" of channel `channelId`: delivers a test message now; `outcome` says whether the receiver took it, and if not why. */
export function useSendTest(channelId: string): { send(): Promise<void>; sending: boolean; outcome: SendTestOutcome | null } {
  const [state, mutate] = useMutation(TestChannel);
  const [outcome, setOutcome] = useState<SendTestOutcome | null>(null);

  async function send() {
    setOutcome(null);
    const result = await mutate({ id: channelId });
    const answer = result.data?.testAlertChannel;
    if (!answer) return setOutcome({ ok: false, text: result.error?.message ?? 'The test could not be sent.' });
    setOutcome({ ok: answer.ok, text: testOutcomeWords(answer) });
  }

  return { send, sending: state.fetching, outcome };
}
