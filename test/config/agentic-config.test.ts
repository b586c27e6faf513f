import { describe, expect, it } from 'vitest';
import { agenticSettings, loadConfig } from '../../src/config.js';

describe('agentic check settings', () => {
  it('are absent without LOOKOUT_AGENTIC_MODEL_URL: agentic checks are then refused', () => {
    expect(loadConfig({}).agentic).toBeNull();
  });

  it('take the URL, the model, the key and the bounds', () => {
    expect(agenticSettings({
      LOOKOUT_AGENTIC_MODEL_URL: 'http://127.0.0.1:8080/v1', LOOKOUT_AGENTIC_MODEL: 'qwen2.5', LOOKOUT_AGENTIC_MODEL_KEY: 'sk-1',
      LOOKOUT_AGENTIC_MAX_STEPS: '8', LOOKOUT_AGENTIC_TIMEOUT_MS: '30000', LOOKOUT_AGENTIC_MODEL_TIMEOUT_MS: '5000',
    })).toEqual({ modelUrl: 'http://127.0.0.1:8080/v1', model: 'qwen2.5', modelKey: 'sk-1', maxSteps: 8, timeoutMs: 30_000, requestTimeoutMs: 5000 });
  });

  it('default the bounds, and the key to none', () => {
    expect(agenticSettings({ LOOKOUT_AGENTIC_MODEL_URL: 'https://api.example.test/v1', LOOKOUT_AGENTIC_MODEL: 'm' }))
      .toMatchObject({ modelKey: null, maxSteps: 20, timeoutMs: 120_000, requestTimeoutMs: 60_000 });
  });

  it.each([
    [{ LOOKOUT_AGENTIC_MODEL_URL: 'http://127.0.0.1:8080/v1' }, 'LOOKOUT_AGENTIC_MODEL_URL needs LOOKOUT_AGENTIC_MODEL'],
    [{ LOOKOUT_AGENTIC_MODEL: 'm' }, 'need LOOKOUT_AGENTIC_MODEL_URL'],
    [{ LOOKOUT_AGENTIC_MODEL_KEY: 'sk-1' }, 'need LOOKOUT_AGENTIC_MODEL_URL'],
    [{ LOOKOUT_AGENTIC_MODEL_URL: 'not a url', LOOKOUT_AGENTIC_MODEL: 'm' }, 'LOOKOUT_AGENTIC_MODEL_URL must be a URL'],
    [{ LOOKOUT_AGENTIC_MODEL_URL: 'ftp://models.test', LOOKOUT_AGENTIC_MODEL: 'm' }, 'must be an http or https URL'],
    [{ LOOKOUT_AGENTIC_MODEL_URL: 'http://m.test', LOOKOUT_AGENTIC_MODEL: 'm', LOOKOUT_AGENTIC_MAX_STEPS: '0' }, 'LOOKOUT_AGENTIC_MAX_STEPS must be an integer of at least 1'],
  ])('refuse %o at start, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never put the key in a start-up error', () => {
    expect(() => loadConfig({ LOOKOUT_AGENTIC_MODEL_KEY: 'sk-secret-value' })).toThrow(expect.objectContaining({ message: expect.not.stringContaining('sk-secret-value') }));
  });
});
