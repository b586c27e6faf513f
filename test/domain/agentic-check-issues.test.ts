import { describe, expect, it } from 'vitest';
import { agenticCheckIssues, agenticResourceIssues } from '../../src/domain/agentic-check-issues.js';

describe('agentic check issues', () => {
  const check = { name: 'Pricing agent', prompt: 'Verify the plans.' };

  it('refuses an AGENTIC check, on create and update alike, while no model is configured', () => {
    expect(agenticCheckIssues('AGENTIC', check, false)).toEqual([{
      key: 'checkType',
      message: 'the AGENTIC check "Pricing agent" cannot run: this server has no model for agentic checks (the operator sets LOOKOUT_AGENTIC_MODEL_URL and LOOKOUT_AGENTIC_MODEL)',
    }]);
    expect(agenticCheckIssues('AGENTIC', check, true)).toEqual([]);
  });

  it('has nothing to say about other check types', () => {
    expect(agenticCheckIssues('BROWSER', { ...check, agentRuntime: { skills: ['x'] } }, false)).toEqual([]);
  });

  it('refuses skills, which this runner cannot load, but not the empty list CLI 8 sends', () => {
    expect(agenticCheckIssues('AGENTIC', { ...check, agentRuntime: { skills: [] } }, true)).toEqual([]);
    expect(agenticCheckIssues('AGENTIC', { ...check, agentRuntime: { skills: ['cost-optimization'] } }, true)).toEqual([
      { key: 'agentRuntime.skills', message: expect.stringContaining('asks for cost-optimization') },
    ]);
  });

  it('keys a deployment\'s issues by the resource, naming a check without a name by its logical id', () => {
    const issues = agenticResourceIssues([
      { type: 'check', logicalId: 'pricing', payload: { checkType: 'AGENTIC', prompt: 'x' } },
      { type: 'check', logicalId: 'api', payload: { checkType: 'API', name: 'API' } },
      { type: 'check-group', logicalId: 'group', payload: { checkType: 'AGENTIC' } },
    ], false);
    expect(issues).toEqual([{ key: 'pricing.payload.checkType', message: expect.stringContaining('the AGENTIC check "pricing" cannot run') }]);
  });
});
