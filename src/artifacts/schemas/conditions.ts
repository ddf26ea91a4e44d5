// Generated from conditions.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

/**
 * evalrig conditions file
 */
export interface ConditionsFile {
  schema: 'evalrig/conditions@1';
  campaign: string;
  eval_set: {
    name: string;
    path: string;
    sha256: string;
  };
  baseline_condition: string;
  conditions: {
    name: string;
    description?: string;
    stage: {
      from: string;
      to: string;
      sha256: string;
    }[];
    env: string[];
    agent_args: string[];
    agent?: Agent;
    /**
     * In a matrix eval set (`agents`): the condition as declared and the type of the agent that plays this copy of it (`with_skill@codex`: with_skill, codex).
     */
    matrix?: {
      base: string;
      agent: string;
    };
  }[];
  evals: {
    id: string;
    runs: number;
    turns: number;
    codebase?: Codebase;
    /**
     * The first turn's message.
     */
    prompt?: string;
    /**
     * The later turns' messages, in order.
     */
    messages?: {
      message: string;
      phase: string;
    }[];
    expectations?: string[];
    message_checks?: string[];
    /**
     * The names of the eval's checks, so that the report counts a run that ended before they ran as failing each (absent in conditions.json of older versions).
     */
    checks?: string[];
    /**
     * The eval's reference diff (a mined task's tasks/<id>/reference.patch), as a path relative to the eval set's folder: host-side, never staged; the viewer shows it beside a run's diff.
     */
    reference?: string;
  }[];
  image: Image;
  /**
   * The engines this invocation spread its runs over, in order (the first built the images); each run.json names its own.
   */
  engines?: Engine[];
  stand_in_sha256: string;
  evalrig_version: string;
  created_at: string;
  options: {
    jobs: number;
    stop_at_hand_over: boolean;
    only?: string[];
    conditions?: string[];
  };
  /**
   * The agent adapter's package, its exact version and the sha256 of the binary mounted into the containers.
   */
  agent?: {
    package: string;
    version: string;
    binary_sha256: string;
    /**
     * sha256 of evalrig's model relay the agent reaches the gateway through (codex).
     */
    relay_sha256?: string;
    /**
     * The model the agent asked for (codex: agent.model_name), which its tokens are priced with.
     */
    model?: string;
    /**
     * The Node runtime a Node-bundled agent runs on (Gemini CLI, Qwen Code): evalrig's pinned npm package, its exact version and the sha256 of its binary.
     */
    runtime?: {
      package: string;
      version: string;
      sha256: string;
    };
    /**
     * How the binary reached the containers: mounted read-only, or built into images derived from the run images.
     */
    install?: 'mount' | 'image';
    /**
     * With install `image`: each derived image (its tag and id) and the run image it derives from.
     */
    images?: {
      base: string;
      base_id: string;
      tag: string;
      id: string;
    }[];
  };
  /**
   * The eval set's step checks, as the report evaluates them over each run's trajectory.
   */
  step_checks?: {
    name: string;
    description: string;
    ran?: string;
    succeeded?: boolean;
    before_last?: string;
    never?: string;
    read?: string;
  }[];
}
/**
 * Its agent, in a campaign that plays more than one (a cross-agent campaign).
 */
export interface Agent {
  package: string;
  version: string;
  binary_sha256: string;
  /**
   * sha256 of evalrig's model relay the agent reaches the gateway through (codex).
   */
  relay_sha256?: string;
  /**
   * The model the agent asked for (codex: agent.model_name), which its tokens are priced with.
   */
  model?: string;
  /**
   * The Node runtime a Node-bundled agent runs on (Gemini CLI, Qwen Code): evalrig's pinned npm package, its exact version and the sha256 of its binary.
   */
  runtime?: {
    package: string;
    version: string;
    sha256: string;
  };
  /**
   * How the binary reached the containers: mounted read-only, or built into images derived from the run images.
   */
  install?: 'mount' | 'image';
  /**
   * With install `image`: each derived image (its tag and id) and the run image it derives from.
   */
  images?: {
    base: string;
    base_id: string;
    tag: string;
    id: string;
  }[];
}
export interface Codebase {
  kind: 'git' | 'path' | 'snapshot';
  url?: string;
  ref?: string;
  path?: string;
  commit: string;
  branch: string;
  host_local?: true;
  origin?: string;
  dirty?: true;
}
export interface Image {
  tag: string;
  id: string;
  environment?: Environment;
  /**
   * The images of the evals that name an environment (the image above is the others').
   */
  environments?: {
    evals: string[];
    image: {
      tag: string;
      id: string;
    };
    environment: Environment;
  }[];
}
/**
 * The environment image a run's image is built over (the eval set's Dockerfile over evalrig's base), and its setup commands.
 */
export interface Environment {
  /**
   * The Dockerfile, relative to the eval set's folder.
   */
  dockerfile: string;
  /**
   * The build context folder, relative to the eval set's folder.
   */
  context: string;
  /**
   * sha256 over the context's files, the Dockerfile's place, the base image's id and the build args; its first 12 hex are the tag's.
   */
  hash: string;
  tag: string;
  id: string;
  /**
   * The base image as named (BASE_IMAGE).
   */
  base_image: string;
  base_id: string;
  /**
   * The setup commands, in order.
   */
  setup: string[];
}
/**
 * An engine the runs ran on (a Docker or Podman engine, or a Kubernetes cluster): the address as the user gave it, who answered there (kind, its id and version), whether it runs rootless, and whether it held its containers to their memory and process limits.
 */
export interface Engine {
  address: string;
  kind: 'docker' | 'podman' | 'kubernetes';
  id: string;
  version: string;
  rootless: boolean;
  limits_enforced: boolean;
}
