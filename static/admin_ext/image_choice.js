// Thumbnails in the image autocomplete: Django's admin starts select2 on the field,
// and this starts it again with the same options plus a picture beside each title.
'use strict';
{
    const $ = django.jQuery;

    function withThumbnail(item) {
        if (!item.id || !item.thumb) {
            return item.text;
        }
        const row = $('<span class="image-choice"></span>');
        $('<img alt="" width="64" height="36" loading="lazy">')
            .attr('src', item.thumb)
            .appendTo(row);
        $('<span dir="auto"></span>').text(item.text).appendTo(row);
        return row;
    }

    function start(element) {
        const $element = $(element);
        if ($element.data('select2')) {
            $element.select2('destroy');
        }
        $element.select2({
            ajax: {
                data: function(params) {
                    return {
                        term: params.term,
                        page: params.page,
                        app_label: element.dataset.appLabel,
                        model_name: element.dataset.modelName,
                        field_name: element.dataset.fieldName
                    };
                }
            },
            templateResult: withThumbnail,
            templateSelection: withThumbnail
        });
    }

    $(function() {
        $('select.admin-autocomplete[data-thumbnails]')
            .not('[name*=__prefix__]')
            .each(function(i, element) { start(element); });
    });
}
