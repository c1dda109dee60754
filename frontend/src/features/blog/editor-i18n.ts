import type { I18nDictionary } from '@editorjs/editorjs';
import { BLOG_IMAGE_WIDTHS } from '@telemed/contracts/blog-constants';
import type { Translate } from '../../i18n/useT';

/**
 * Editor.js's own words (its menus, tooltips, the tools' placeholders and settings) in the reader's language: its
 * `i18n.messages`, keyed by the English each of them says. The sections under `tools` are named after the tools as
 * `blogEditorTools` names them (and Editor.js's own: `link`, `convertTo`, `stub`); the editor takes them when it is made.
 */
export function editorMessages(t: Translate): I18nDictionary {
  const caption = t('blog.editorCaptionPlaceholder');
  const checklist = t('blog.editorToolChecklist');
  return {
    ui: {
      blockTunes: { toggler: { 'Click to tune': t('blog.editorClickToTune'), 'or drag to move': t('blog.editorOrDragToMove') } },
      inlineToolbar: { converter: { 'Convert to': t('blog.editorConvertTo') } },
      toolbar: { toolbox: { Add: t('blog.editorAdd') } },
      popover: { Filter: t('blog.editorFilter'), 'Nothing found': t('blog.editorNothingFound'), 'Convert to': t('blog.editorConvertTo') },
    },
    toolNames: {
      Text: t('blog.editorToolText'),
      Heading: t('blog.editorToolHeading'),
      'Unordered List': t('blog.editorToolUnorderedList'),
      'Ordered List': t('blog.editorToolOrderedList'),
      Checklist: checklist,
      Quote: t('blog.editorToolQuote'),
      Code: t('blog.editorToolCode'),
      Delimiter: t('blog.editorToolDelimiter'),
      Link: t('blog.editorToolLink'),
      Image: t('blog.editorToolImage'),
      Bold: t('blog.editorToolBold'),
      Italic: t('blog.editorToolItalic'),
      Marker: t('blog.editorToolMarker'),
      InlineCode: t('blog.editorToolInlineCode'),
      Underline: t('blog.editorToolUnderline'),
    },
    tools: {
      stub: { 'The block can not be displayed correctly.': t('blog.editorStub') },
      link: { 'Add a link': t('blog.editorAddLink') },
      convertTo: { 'Convert to': t('blog.editorConvertTo') },
      header: Object.fromEntries([1, 2, 3, 4, 5, 6].map((level) => [`Heading ${level}`, t('blog.editorHeadingLevel', { level })])),
      list: {
        Unordered: t('blog.editorListUnordered'),
        Ordered: t('blog.editorListOrdered'),
        Checklist: checklist,
        'Start with': t('blog.editorListStartWith'),
        'Counter type': t('blog.editorListCounterType'),
        Numeric: t('blog.editorCounterNumeric'),
        'Lower Roman': t('blog.editorCounterLowerRoman'),
        'Upper Roman': t('blog.editorCounterUpperRoman'),
        'Lower Alpha': t('blog.editorCounterLowerAlpha'),
        'Upper Alpha': t('blog.editorCounterUpperAlpha'),
      },
      quote: { 'Enter a quote': t('blog.editorQuotePlaceholder'), 'Enter a caption': caption, 'Align Left': t('blog.editorAlignLeft'), 'Align Center': t('blog.editorAlignCenter') },
      code: { 'Enter a code': t('blog.editorCodePlaceholder') },
      linkTool: {
        Link: t('blog.editorToolLink'),
        "Couldn't fetch the link data": t('blog.editorLinkFetchFailed'),
        "Couldn't get this link data, try the other one": t('blog.editorLinkNoData'),
        'Wrong response format from the server': t('blog.editorLinkBadResponse'),
      },
      image: {
        'Select an Image': t('blog.editorSelectImage'),
        Caption: t('blog.editorImageCaption'),
        'With border': t('blog.editorWithBorder'),
        'Stretch image': t('blog.editorStretchImage'),
        'With background': t('blog.editorWithBackground'),
        'With caption': t('blog.editorWithCaption'),
        'Couldn’t upload image. Please try another.': t('blog.editorImageUploadFailed'),
        // The resize button's label (SizedImageTool): 'Size: 25%' … 'Size: auto'.
        ...Object.fromEntries(BLOG_IMAGE_WIDTHS.map((width) => [`Size: ${width}`, t('blog.editorImageSize', { width })])),
      },
      embed: { 'Enter a caption': caption },
    },
    blockTunes: {
      delete: { Delete: t('blog.delete'), 'Click to delete': t('blog.editorClickToDelete') },
      moveUp: { 'Move up': t('blog.editorMoveUp') },
      moveDown: { 'Move down': t('blog.editorMoveDown') },
    },
  };
}
