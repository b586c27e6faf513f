import type { Scrubber } from '../../domain/scrub-secrets.js';
import type { RunVariable } from '../executor.js';
import { interpolateVariables, variableValues } from '../interpolate-variables.js';
import { runScrubber } from '../run-scrubber.js';

/** How a run's variables reach an agentic check's model and browser. */
export interface AgenticPromptVariables {
  /** The prompt as the model gets it: `{{NAME}}` of non-secret variables (and `{{$UUID}}`, …) filled in, secret ones left as written. */
  prompt: string;
  /** Names of the secret variables the prompt refers to (the model sees their placeholders, never their values). */
  secretPlaceholders: string[];
  /** The arguments of the model's call of `tool` as the browser gets them: the `text` of `type` with `{{NAME}}` filled in, secrets included. */
  toolArguments(tool: string, args: Record<string, unknown>): Record<string, unknown>;
  /** Text on its way back to the model (page text, URLs, assertion values) with secret values masked. */
  scrub: Scrubber;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/**
 * The variables of an agentic run, as Checkly's AgenticCheck takes them: the prompt refers to
 * environment variables (account, group, check; the later wins on a name) as `{{NAME}}`.
 *
 * Non-secret values are written into the prompt. Secret values never go to the model: their
 * placeholders stay in the prompt, the model passes them on in the text of `type` (`{{PASSWORD}}`),
 * and only there, in the runner, are they replaced by the value the browser types. Nowhere else: a
 * page that talks the model into opening `https://elsewhere/?k={{PASSWORD}}` gets the placeholder,
 * not the secret. What the model reads back is scrubbed of secret values, so a page that shows one
 * does not hand it over either. An unknown name stays as written, as in request templates.
 */
export function agenticPromptVariables(template: string, variables: readonly RunVariable[]): AgenticPromptVariables {
  const effective = new Map(variables.map((v) => [v.key, v]));
  const plain = variableValues([...effective.values()].filter((v) => !v.secret));
  const all = variableValues([...effective.values()]);
  const secretPlaceholders = [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((k) => effective.get(k)?.secret === true))];
  return {
    prompt: interpolateVariables(template, plain),
    secretPlaceholders,
    toolArguments: (tool, args) => (tool === 'type' && typeof args.text === 'string' ? { ...args, text: interpolateVariables(args.text, all) } : args),
    scrub: runScrubber(variables),
  };
}
