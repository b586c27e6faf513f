import type { ModelTurn } from './scripted-model-server.js';

/**
 * What the scripted model answers to the boilerplate project's agentic prompt ("Navigate to
 * <pricing page> and verify that at least three plan tiers are displayed"): open the page the
 * prompt names, read it, assert the three tiers, and conclude. The tool names and their arguments
 * are those Lookout's agentic runner offers; adjust them here if they change.
 */
export function pricingAgentScript(body: Record<string, any>): ModelTurn[] {
  const prompt = JSON.stringify(body.messages ?? []);
  const url = /https?:\/\/[^\s"'\\]+\/pricing/.exec(prompt)?.[0] ?? 'about:blank';
  return [
    { tool: 'navigate', arguments: { url } },
    { tool: 'read', arguments: {} },
    { tool: 'assert', arguments: { description: 'At least three plan tiers are displayed', text: 'Enterprise', passed: true } },
    { final: 'PASSED: the pricing page shows three plan tiers (Hobby, Team, Enterprise).' },
  ];
}
