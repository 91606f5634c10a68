export { AdvanceFilterDialog } from './ui/advance-filter-dialog';
export { TagNameDialog } from './ui/tag-name-dialog';
export { TagsList } from './ui/tags-list';
export {
  $counts,
  $currentName,
  $currentSerials,
  $notice,
  $selectedTag,
  $unsaved,
  advanceFilterOpened,
  tagDialogOpened,
  tagsRequested,
  TAG_TEXT,
} from './model';
