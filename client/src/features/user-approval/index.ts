export { $detailMode, detailClosed, editAccountClicked, viewDetailClicked, type DetailMode } from './model';
export { RequestDetail, DecisionPopup } from './ui/request-detail';
