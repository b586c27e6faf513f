import type { CheckType } from './catalog.js';
import type { Issue } from './lookout-error.js';

/** The settings an operator sets so agentic checks can run (README, *Agentic checks*). */
export const AGENTIC_MODEL_SETTINGS = 'LOOKOUT_AGENTIC_MODEL_URL and LOOKOUT_AGENTIC_MODEL';

/** Why an AGENTIC check cannot run on a server without a model, naming the check and the settings. */
export function agenticModelMissingMessage(name: string): string {
  return `the AGENTIC check "${name}" cannot run: this server has no model for agentic checks (the operator sets ${AGENTIC_MODEL_SETTINGS})`;
}

/**
 * What keeps an agentic check from being accepted: no model configured on this server (it would
 * fail every run), or `agentRuntime.skills`, which this runner cannot load (it has no skills
 * registry; its tools are fixed). Other check types have none.
 */
export function agenticCheckIssues(type: CheckType, data: Record<string, any>, modelConfigured: boolean): Issue[] {
  if (type !== 'AGENTIC') return [];
  const issues: Issue[] = [];
  const name = typeof data.name === 'string' ? data.name : 'unnamed';
  if (!modelConfigured) issues.push({ key: 'checkType', message: agenticModelMissingMessage(name) });
  const skills = data.agentRuntime?.skills;
  if (Array.isArray(skills) && skills.length > 0) {
    issues.push({
      key: 'agentRuntime.skills',
      message: `cannot be loaded on this server (the AGENTIC check "${name}" asks for ${skills.join(', ')}): its agent has the fixed browser tools navigate, click, type, read_page and assert; remove the skills`,
    });
  }
  return issues;
}

/**
 * agenticCheckIssues over the checks of a deployment (`checkly deploy` and `deploy --preview`),
 * keyed `<logicalId>.payload.<key>` as the plan's own issues are: a preview refuses what the
 * deploy would.
 */
export function agenticResourceIssues(resources: readonly { type: string; logicalId: string; payload?: unknown }[], modelConfigured: boolean): Issue[] {
  const issues: Issue[] = [];
  for (const r of resources) {
    const payload = r.payload as Record<string, any> | null | undefined;
    if (r.type !== 'check' || payload?.checkType !== 'AGENTIC') continue;
    const named = { ...payload, name: typeof payload.name === 'string' ? payload.name : r.logicalId };
    for (const issue of agenticCheckIssues('AGENTIC', named, modelConfigured)) issues.push({ key: `${r.logicalId}.payload.${issue.key}`, message: issue.message });
  }
  return issues;
}
