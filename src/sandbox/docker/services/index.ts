/**
 * A Docker run's services: its private network and places made ahead
 * (places.ts), the services started, made ready and watched (group.ts), and
 * the sandbox that takes them with it (start.ts).
 */
export { SERVICE_LABEL, describeFailure } from './group.js';
export {
  PLACE_LABEL,
  makePlaces,
  reserveWithServices,
  servicesRefusalOf,
  type PlacesSpec,
  type RunPlaces,
} from './places.js';
export { startWithServices, type StartOnNetwork } from './start.js';
