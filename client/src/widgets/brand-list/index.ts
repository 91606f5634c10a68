export { BrandListView } from './ui/brand-list-view';
