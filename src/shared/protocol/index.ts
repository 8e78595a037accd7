export * from './schemas';
export * from './reasons';
export * from './builders';
export * from './intake';
export * from './orderId';
