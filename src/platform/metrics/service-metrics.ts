// Every metric the service exposes at /metrics, in one place: names, help, label names, and the
// label values each may take (always bounded: method, route pattern, status, family, outcome, tool,
// surface, rule, provider, model, policy, reason, guard, verdict — never an owner id, handle, job id,
// token, parameter or prompt). Features receive this object and bind the children they count into;
// with metrics disabled every family hands out inert children and nothing is rendered.
import { Registry, type Metric } from 'prom-client';
import { CounterFamily, TalliedCounterFamily } from './counter-family.js';
import { redactionCounts } from '../redaction/index.js';
import { GaugeFamily } from './gauge-family.js';
import { HistogramFamily } from './histogram-family.js';
import type { MetricFamily, MetricSnapshot } from './metric-family.js';
import { processMetricsRegistry } from './process-metrics.js';

export type RunFamily = 'bundle' | 'workflow' | 'eval';
export type ToolCallOutcome = 'succeeded' | 'failed' | 'denied' | 'refused' | 'timed_out' | 'cancelled';

const PREFIX = 'portcullis_';

/** Seconds: a person answers in seconds to days. */
const APPROVAL_WAIT_BUCKETS = [1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 24 * 3600, 7 * 24 * 3600];

export class ServiceMetrics {
  readonly enabled: boolean;
  readonly registry = new Registry();

  readonly httpRequestDuration: HistogramFamily;
  readonly runsStarted: CounterFamily;
  readonly runsFinished: CounterFamily;
  readonly runDuration: HistogramFamily;
  readonly runsActive: GaugeFamily;
  readonly runsQueued: GaugeFamily;
  readonly streamsOpen: GaugeFamily;
  readonly toolCalls: CounterFamily;
  readonly toolCallDuration: HistogramFamily;
  readonly modelCalls: CounterFamily;
  readonly modelCallDuration: HistogramFamily;
  readonly modelTokens: CounterFamily;
  readonly modelCost: CounterFamily;
  readonly spendUsd: CounterFamily;
  readonly rateLimitRefusals: CounterFamily;
  readonly authFailures: CounterFamily;
  readonly archiveRejections: CounterFamily;
  readonly redactions: TalliedCounterFamily;
  readonly evalVerdicts: CounterFamily;
  readonly evalCases: CounterFamily;
  readonly approvalsPending: GaugeFamily;
  readonly approvalWait: HistogramFamily;
  readonly webhookDeliveries: CounterFamily;
  readonly a2aRequests: CounterFamily;

  constructor(options: { readonly enabled: boolean }) {
    this.enabled = options.enabled;
    const on = options.enabled;
    const counter = (name: string, help: string, labels: readonly string[]): CounterFamily => this.#add(new CounterFamily(`${PREFIX}${name}`, help, labels, on));
    const gauge = (name: string, help: string, labels: readonly string[]): GaugeFamily => this.#add(new GaugeFamily(`${PREFIX}${name}`, help, labels, on));
    const histogram = (name: string, help: string, labels: readonly string[]): HistogramFamily => this.#add(new HistogramFamily(`${PREFIX}${name}`, help, labels, on));

    this.httpRequestDuration = histogram('http_request_duration_seconds', 'HTTP requests answered, by method, route pattern (unmatched when none) and status.', ['method', 'route', 'status']);
    this.runsStarted = counter('runs_started_total', 'Run executions started on this instance (a run taken over starts again), by family.', ['family']);
    this.runsFinished = counter('runs_finished_total', 'Run executions ended on this instance, by family and outcome (the final state; interrupted when the run stayed live).', ['family', 'outcome']);
    this.runDuration = histogram('run_duration_seconds', 'Wall time of run executions on this instance, by family and outcome.', ['family', 'outcome']);
    this.runsActive = gauge('runs_active', 'Runs executing on this instance now (parked workflow runs included), by family.', ['family']);
    this.runsQueued = gauge('runs_queued', 'Runs waiting in this instance’s dispatch lane for a slot, by family.', ['family']);
    this.streamsOpen = gauge('streams_open', 'Open event streams (bundle streams and AG-UI runs, workflow progress streams), by family.', ['family']);
    this.toolCalls = counter(
      'tool_calls_total',
      'Every governed tool call (tools/governed-call.ts), by tool, surface (bundle, workflow, direct, mcp, eval), outcome (succeeded, failed, denied, refused, timed_out, cancelled) and, when denied, the rule (not_granted, autonomy, data_classification).',
      ['tool', 'surface', 'outcome', 'rule'],
    );
    this.toolCallDuration = histogram('tool_call_duration_seconds', 'Time tools took to run (granted calls only), by tool and surface.', ['tool', 'surface']);
    this.modelCalls = counter('model_calls_total', 'Chat model calls, by provider, model and outcome (succeeded or the failure code).', ['provider', 'model', 'outcome']);
    this.modelCallDuration = histogram('model_call_duration_seconds', 'Chat model call time from request to the last part (gen_ai.client.operation.duration), by provider and model.', ['provider', 'model']);
    this.modelTokens = counter('model_tokens_total', 'Tokens the chat model reported, by provider, model and type (input, output).', ['provider', 'model', 'type']);
    this.modelCost = counter('model_cost_dollars_total', 'Dollar cost of chat model calls at ChatModel:Pricing, by provider and model.', ['provider', 'model']);
    this.spendUsd = counter('spend_usd_total', 'Dollars spent on model calls counted against owners’ budgets (DESIGN §16), by run family and model; no owner label.', ['family', 'model']);
    this.rateLimitRefusals = counter('rate_limit_refusals_total', 'Requests refused with 429 by a rate-limit policy, by policy.', ['policy']);
    this.authFailures = counter('auth_failures_total', 'Requests refused authentication (401) or unable to authenticate (503), by reason.', ['reason']);
    this.archiveRejections = counter('archive_rejections_total', 'Bundle archives refused at upload, by the guard that refused them.', ['guard']);
    this.redactions = new TalliedCounterFamily(`${PREFIX}redactions_total`, 'Secrets redacted from anything logged or returned (this process), by detector rule.', 'rule', () => redactionCounts());
    if (on) this.registry.registerMetric(this.redactions as unknown as Metric);
    this.evalVerdicts = counter('eval_runs_total', 'Eval runs that finished with a report, by verdict (Pass, Warn, Fail).', ['verdict']);
    this.evalCases = counter('eval_cases_total', 'Judged eval case executions, by outcome (passed, failed, warned, errored).', ['outcome']);
    this.webhookDeliveries = counter(
      'webhook_deliveries_total',
      'Webhook delivery attempts made by this instance, by outcome (delivered; retry: not 2xx or unreachable, another attempt follows; failed: the last attempt failed).',
      ['outcome'],
    );
    this.a2aRequests = counter(
      'a2a_requests_total',
      'A2A JSON-RPC requests to uploaded agents (DESIGN §20; their runs count as family bundle), by method (other for an unknown one) and outcome (ok, error: a JSON-RPC error, refused: an HTTP problem).',
      ['method', 'outcome'],
    );
    this.approvalsPending = gauge('approvals_pending', 'Approvals waiting for a person, on every instance (as this instance last counted them), by kind (HumanGate, ToolCall).', ['kind']);
    this.approvalWait = new HistogramFamily(
      `${PREFIX}approval_wait_seconds`,
      'How long approvals waited until decided or expired, by kind and outcome (approved, rejected, expired).',
      ['kind', 'outcome'],
      on,
      APPROVAL_WAIT_BUCKETS,
    );
    this.#add(this.approvalWait);
  }

  /** The exposition text (the service's families, then the Node process metrics) and its content type. */
  async render(): Promise<{ readonly contentType: string; readonly body: string }> {
    const [own, process] = await Promise.all([this.registry.metrics(), processMetricsRegistry().metrics()]);
    return { contentType: this.registry.contentType, body: `${own}\n${process}` };
  }

  #add<F extends MetricFamily<unknown>>(family: F): F {
    // The families implement the interface the registry renders (name, help, type, get()).
    if (this.enabled) this.registry.registerMetric(family as unknown as Metric);
    return family;
  }
}

export type { MetricSnapshot };
