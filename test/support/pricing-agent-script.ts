import type { ModelRequest, ModelTurn } from './scripted-model.js';

/**
 * What the scripted model answers to the boilerplate project's agentic prompt ("Navigate to
 * <pricing page> and verify that at least three plan tiers are displayed"): open the page the
 * prompt names, assert the three tiers against the live page, and finish. The tool names and
 * arguments are those of Lookout's agentic runner (src/domain/agentic-tools.ts); the model server
 * refuses a tool the runner does not offer, so a rename shows here as a failing test.
 */
export function pricingAgentScript(request: ModelRequest, turn: number): ModelTurn {
  const prompt = JSON.stringify(request.body.messages ?? []);
  const url = /https?:\/\/[^\s"'\\]+\/pricing/.exec(prompt)?.[0] ?? 'about:blank';
  if (turn === 0) return { toolCalls: [{ name: 'navigate', arguments: { url } }] };
  if (turn === 1) {
    return { toolCalls: [{ name: 'assert', arguments: { condition: 'At least three plan tiers are displayed', kind: 'element_count_at_least', selector: 'section.plan', expected: '3' } }] };
  }
  return { toolCalls: [{ name: 'finish', arguments: { summary: 'The pricing page shows three plan tiers (Hobby, Team, Enterprise).' } }] };
}
