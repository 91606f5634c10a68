export { $detailMode, detailClosed, editAccountClicked, viewDetailClicked } from './model';
export { RequestDetail, DecisionPopup } from './ui/request-detail';
