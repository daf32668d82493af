// What a staged bundle declares: the agent's identity and prompt from AGENT.md, its requests
// (`skills`, `allowed-tools`), its nested skills and its plugin manifests. Requests only: the
// capability envelope decides what is granted.
export interface BundleSkill {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly body: string;
}

export interface BundlePlugin {
  /** Archive-relative path, `/`-separated: `plugin.json`, `plugins/<p>/plugin.json`, … */
  readonly path: string;
  readonly manifest: Readonly<Record<string, unknown>>;
}

export interface BundleManifest {
  readonly id: string;
  readonly name: string | null;
  readonly description: string | null;
  readonly version: string | null;
  /** The AGENT.md body. */
  readonly systemPrompt: string;
  /** Front-matter `skills`: the nested skills the agent uses; null (absent) means all of them. */
  readonly skillIds: readonly string[] | null;
  /** Front-matter `allowed-tools`: null (absent) means no narrowing, [] means no tools. */
  readonly allowedTools: readonly string[] | null;
  /**
   * Front-matter `require-approval:` (DESIGN.md §13): tool names (lower-cased) whose calls a person
   * approves even under Autonomous when the host has approvals on, or `all`; null when absent. It
   * only tightens: a tool it names is still governed by the envelope first.
   */
  readonly requireApproval: readonly string[] | 'all' | null;
  /** Every well-formed nested skill, in sorted path order, first of each id only. */
  readonly skills: readonly BundleSkill[];
  readonly plugins: readonly BundlePlugin[];
}
