/**
 * The pool over runs: from an eval set to a folder of recorded runs
 * (`evalrig run`). Turns, stops, timeouts, resume and clean-up live here.
 */
export { runCampaign, type CampaignOptions, type CampaignResult } from './campaign.js';
export { gradeCampaignFolder } from './grade.js';
export { planRuns, runKey, type PlannedRun, type PlanFilters } from './plan.js';
export { conditionsFile, runLayout, CONTAINER, type RunLayout } from './layout.js';
export { runPool } from './pool.js';
export { formatDuration } from './progress.js';
export { examineEngines, formatExamination, type EngineExamination } from './doctor.js';
export {
  forecast,
  forecastLines,
  readPilot,
  runsToDetect,
  statedPerRun,
  type Estimate,
  type Forecast,
  type PerRun,
  type Pilot,
} from './forecast.js';
export { CampaignBudget } from './budget.js';
export { RunMeter } from './run-meter.js';
