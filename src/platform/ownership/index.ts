export { OwnedStore, type Owner } from './owned-store.js';
