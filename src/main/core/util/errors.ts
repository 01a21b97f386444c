import { ServiceError } from '../service/index.ts';
import { StaleEditError, ValidationError } from '../store/validation.ts';
import { type CoreSaid, coded } from '../../../shared/core-codes.ts';
import type { SerializedError } from '../../../shared/model.ts';

/**
 * An error as the shells send it. A refusal or a storage failure a screen may show carries its
 * code and values (`said`, shared/core-codes.ts) beside the English message.
 */
export function serializeError(err: unknown): SerializedError {
  if (err instanceof ServiceError) return err.toJSON();
  // Before ValidationError, which it is: a screen offers to reload, the web shell answers 409.
  if (err instanceof StaleEditError)
    return { kind: 'conflict', message: err.message, retryable: false, field: err.field, ...(err.said ? { said: err.said } : {}) };
  if (err instanceof ValidationError)
    return { kind: 'validation', message: err.message, retryable: false, field: err.field, ...(err.said ? { said: err.said } : {}) };
  if (err instanceof Error) {
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_FULL' || code === 'ENOSPC') return { kind: 'disk-full', retryable: true, ...coded('storage.diskFull', {}) };
    if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code?.startsWith('SQLITE_CORRUPT_')) {
      // Found while running (a page damaged since start-up): say what the way forward is.
      return { kind: 'storage', retryable: false, ...coded('storage.damaged', { code }) };
    }
    if (code === 'SQLITE_READONLY') return { kind: 'storage', retryable: false, ...coded('storage.readOnly', {}) };
    if (typeof code === 'string' && code.startsWith('SQLITE_')) return { kind: 'storage', retryable: true, ...coded('storage.unwritable', { code }) };
    const said = (err as { said?: CoreSaid }).said;
    return { kind: err.name === 'Error' ? 'internal' : err.name, message: err.message, retryable: false, ...(said ? { said } : {}) };
  }
  return { kind: 'internal', message: String(err), retryable: false };
}

/** What a schema issue says, as far as a screen in another language needs it. */
interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  origin?: string;
  minimum?: unknown;
  maximum?: unknown;
  expected?: string;
  params?: { code?: string; unsafe?: { kind: 'control' | 'broken'; char: string } };
}

/**
 * An input the contract's schema refused, as the shells send it: "field: message" (the schema's
 * English, the CLI's), with a code for the kinds a screen meets (a text too long or empty, a
 * number out of range or not a number, an invisible character, a rule's amounts).
 */
export function schemaError(zodIssue: { code: string; path: PropertyKey[]; message: string }): SerializedError {
  const issue = zodIssue as SchemaIssue;
  const field = issue.path.join('.') || 'input';
  const said = schemaSaid(issue, { field, detail: issue.message });
  return { kind: 'validation', message: `${field}: ${issue.message}`, retryable: false, field, said };
}

/** The code a schema issue is said by, first match in this order; `input.invalid` for any other. */
function schemaSaid(issue: SchemaIssue, base: { field: string; detail: string }): CoreSaid {
  const ruleCode = issue.params?.code;
  if (ruleCode === 'rule.amountNeedsToken' || ruleCode === 'rule.amountOrder') return { code: ruleCode, values: base };
  if (issue.params?.unsafe) return { code: 'input.unsafe', values: { ...base, ...issue.params.unsafe } };
  if (issue.origin === 'string') {
    if (issue.code === 'too_big') return { code: 'input.tooLong', values: { ...base, max: Number(issue.maximum) } };
    if (issue.code === 'too_small' && Number(issue.minimum) === 1) return { code: 'input.empty', values: base };
  }
  if (issue.code === 'invalid_type' && issue.expected === 'number') return { code: 'input.notNumber', values: base };
  if (issue.origin === 'number') {
    if (issue.code === 'too_small') return { code: 'input.tooSmall', values: { ...base, min: Number(issue.minimum) } };
    if (issue.code === 'too_big') return { code: 'input.tooBig', values: { ...base, max: Number(issue.maximum) } };
  }
  return { code: 'input.invalid', values: base };
}
