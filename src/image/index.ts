/**
 * The test image: docker/Dockerfile over a base with node and git, plus the
 * gh stand-in and the scripted agent, tagged by a hash of its content so that
 * an unchanged image is never rebuilt. The base may be an eval set's
 * environment image (its Dockerfile over evalrig's base, built with the
 * network), whose setup commands run once per commit and image and leave the
 * ignored files every run of that commit starts with.
 */
export {
  ensureTestImage,
  defaultBaseImage,
  IMAGE_LABELS,
  LOCAL_BASE_IMAGE,
  REGISTRY_BASE_IMAGE,
  TEST_IMAGE_REPOSITORY,
  testImageTag,
  type EnsureTestImageOptions,
  type TestImage,
} from './build.js';
export {
  CONTEXT_NAMES,
  defaultSources,
  packTestImageContext,
  projectRoot,
  readTestImageContext,
  sha256,
  testImageContextHash,
  type ContextFile,
  type PackedContext,
  type TestImageSources,
} from './context.js';
export {
  BaseImageMissingError,
  ContextFileMissingError,
  ImageBuildError,
  TestImageError,
} from './errors.js';
export {
  ensureEnvironmentImage,
  environmentContextHash,
  ENVIRONMENT_IMAGE_REPOSITORY,
  type EnsureEnvironmentImageOptions,
  type EnvironmentImage,
} from './environment.js';
export {
  ensureSetupOutput,
  placeSetupOutput,
  setupKey,
  SetupError,
  type EnsureSetupOptions,
  type SetupOutput,
  type SetupRun,
  type SetupRunner,
} from './setup.js';
export {
  agentImageHash,
  ensureAgentImage,
  AGENT_IMAGE_REPOSITORY,
  type AgentImage,
  type AgentImageFile,
  type EnsureAgentImageOptions,
} from './agent-image.js';
export {
  ensureServiceImage,
  portReadyCommand,
  SERVICE_IMAGE_REPOSITORY,
  type EnsureServiceImageOptions,
  type ServiceImage,
  type ServiceImageSource,
} from './service.js';
